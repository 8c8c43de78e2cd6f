"""The benchmarks, run as files (see common.py); a package only so that tests can import
bench.common (the throw-away databases and the gunicorn server)."""
