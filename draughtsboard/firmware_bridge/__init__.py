"""Serial link to a microcontroller that scans the switches and drives the LEDs."""
