"""What the benchmarks (and the tests) share: free loopback ports and waiting for a
listener (`ports`), processes and their figures (`processes`), a real mosquitto
(`broker`), MQTT packets written by hand (`mqtt_wire`), a real hall and its live stream
(`hall`), calls to a served JSON API (`http`), protocol-level boards (`boards`), a disk
that fills up (`disk`), and percentiles (`stats`). One copy each, so that a fix reaches
every script."""
