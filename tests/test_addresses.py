"""`HOST:PORT`, read one way for every option that takes one."""

from __future__ import annotations

import pytest

from draughtsboard.addresses import AddressError, HostPort, is_loopback, parse_host_port


@pytest.mark.parametrize("text, host, port", [
    ("127.0.0.1:8080", "127.0.0.1", 8080),
    ("0.0.0.0:1883", "0.0.0.0", 1883),
    ("[::1]:8080", "::1", 8080),
    ("[2001:DB8::1]:1", "2001:db8::1", 1),
    ("localhost:65535", "localhost", 65535),
    ("hall.example.org:1883", "hall.example.org", 1883),
    ("h:1884", "h", 1884),
])
def test_ipv4_bracketed_ipv6_and_names_are_read(text, host, port):
    read = parse_host_port(text, "--listen")
    assert read == HostPort(host, port)
    assert parse_host_port(str(read)) == read  # written back as it is read


@pytest.mark.parametrize("text", [
    "bad", "127.0.0.1", "127.0.0.1:", ":80", "127.0.0.1:0", "127.0.0.1:65536",
    "127.0.0.1:99999", "127.0.0.1:٣", "127.0.0.1:+80", "127.0.0.1: 80", "::1:8080",
    "[::1]", "[nonsense]:80", "[127.0.0.1]:80", "host name:80", "h\nallow_anonymous true:1",
    "-h:80", "h_x:80", "héllo:80", "a" * 254 + ":80",
])
def test_anything_else_is_refused_naming_the_option_and_the_text(text):
    with pytest.raises(AddressError) as raised:
        parse_host_port(text, "--event-broker")
    assert str(raised.value).startswith(f"--event-broker {text!r}: expected HOST:PORT")
    assert "\n" not in str(raised.value).replace(repr(text), "")


def test_port_zero_is_any_free_port_only_for_a_server_that_listens():
    assert parse_host_port("127.0.0.1:0", any_port=True) == HostPort("127.0.0.1", 0)
    with pytest.raises(AddressError):
        parse_host_port("127.0.0.1:0")


def test_loopback_is_this_machine_only():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("::") and not is_loopback("h")
