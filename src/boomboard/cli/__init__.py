"""The ``boomboard`` command line: one subcommand per job."""
