"""``HOST:PORT``, read one way for every option that takes one.

Before this module there were four readers with four rules (one took port 0, one took
``٣`` for a digit, one took an IPv6 address without brackets, where its last group
cannot be told from the port). Now there is one: an IPv4 address, an IPv6 address in
brackets (``[::1]:8080``), or a host name, then a port 1-65535 in ASCII digits.
``any_port=True`` also takes port 0, "any free port", for a server that listens (tests
start one where no port is known to be free). The host is checked as strictly as a
config file needs it: a name is letters, digits, dots and dashes, so nothing read here
can start a line of its own in a broker's configuration.

Pure: no I/O, standard library only; imported by the command line and the hall.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$")
EXPECTED = "expected HOST:PORT (an IPv4 address, [an IPv6 address] or a host name, " \
           "and a port 1-65535)"


class AddressError(ValueError):
    """``HOST:PORT`` that is not one; the message names the option and what it got."""

    def __init__(self, option: str, text: str) -> None:
        super().__init__(f"{option} {text!r}: {EXPECTED}")
        self.option = option
        self.text = text


@dataclass(frozen=True)
class HostPort:
    """A host (an address without brackets, or a name) and a port."""

    host: str
    port: int

    @property
    def is_ipv6(self) -> bool:
        return ":" in self.host

    def __str__(self) -> str:
        """The form it is read from: ``[::1]:8080`` for an IPv6 address."""
        return f"[{self.host}]:{self.port}" if self.is_ipv6 else f"{self.host}:{self.port}"


def parse_host_port(text: str, option: str = "address", *,
                    any_port: bool = False) -> HostPort:
    """``text`` as a `HostPort`; `AddressError` naming ``option`` otherwise."""
    host, colon, port_text = text.rpartition(":")
    if not colon or not _port_ok(port_text, any_port):
        raise AddressError(option, text)
    if host.startswith("[") and host.endswith("]"):
        try:
            return HostPort(str(ipaddress.IPv6Address(host[1:-1])), int(port_text))
        except ValueError:
            raise AddressError(option, text) from None
    if not host.isascii() or not (_is_ipv4(host) or _NAME.match(host)):
        raise AddressError(option, text)
    return HostPort(host, int(port_text))


def _port_ok(text: str, any_port: bool) -> bool:
    if not (0 < len(text) <= 5 and text.isascii() and text.isdigit()):
        return False
    return (0 if any_port else 1) <= int(text) <= 65535


def _is_ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
