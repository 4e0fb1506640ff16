"""Built-in scenario suites (data; installed as ``mmtsb_env.suites``)."""
