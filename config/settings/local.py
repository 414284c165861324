"""Local development (the default for manage.py): debug on, a throwaway secret key."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-local-only-key-do-not-use-in-production")
