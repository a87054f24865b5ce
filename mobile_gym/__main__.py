"""``python -m mobile_gym``: the same as the ``mobile-gym`` command."""

from mobile_gym.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
