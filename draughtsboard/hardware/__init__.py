"""Adapters that drive the reed-switch matrix, LEDs, buzzer and buttons through gpiozero."""
