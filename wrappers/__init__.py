"""Gymnasium and PettingZoo wrappers for mmtsb_env (installed as ``mmtsb_env.wrappers``)."""
