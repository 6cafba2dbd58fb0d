"""The readings stage: a space of readings, their runs, sensitivity, calibration, verdict."""
