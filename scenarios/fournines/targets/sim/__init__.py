"""The simulator (`./fournines simulate`): a discrete-event model of a scenario's job on N machines,
driven by a calibration file, writing a results folder like a real run's. It reads calibration files
and writes results folders; it never imports the engine (DESIGN.md §2). scenarios/docs/simulate.md
describes the model."""
