from .browser_fixtures import browser, expect  # noqa: F401 (fixtures for this folder)
