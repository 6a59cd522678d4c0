"""What the benchmarks (and the hall's tests) share: free loopback ports and waiting for a
listener (`ports`), processes and their figures (`processes`), a real mosquitto
(`broker`), a real hall and its live stream (`hall`), protocol-level boards (`boards`),
and percentiles (`stats`). One copy each, so that a fix reaches every script."""
