"""The simulator plug-ins: each module here is one backend, `make(settings)` returning a Backend."""
