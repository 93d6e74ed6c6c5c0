"""Put this directory on PYTHONPATH: `requests` calls to the public sandbox API origin
(ACME_SANDBOX_API_ORIGIN, default https://sandbox.api.example.com) go to the local sandbox
(ACME_SANDBOX_ORIGIN, e.g. http://127.0.0.1:4010) instead, path and query kept, so the samples
run unchanged. Does nothing when ACME_SANDBOX_ORIGIN is unset or requests is not installed."""
import os
from urllib.parse import urlsplit


def _origin(url):
    parts = urlsplit(url)
    return (parts.scheme.lower(), parts.netloc.lower())


def _install():
    target = os.environ.get("ACME_SANDBOX_ORIGIN", "").rstrip("/")
    if not target:
        return
    api = _origin(os.environ.get("ACME_SANDBOX_API_ORIGIN") or "https://sandbox.api.example.com")
    try:
        import requests
    except ImportError:
        return

    def reroute(url):
        if isinstance(url, bytes):
            url = url.decode("utf-8")
        if not isinstance(url, str) or _origin(url) != api:
            return url
        parts = urlsplit(url)
        return target + parts.path + ("?" + parts.query if parts.query else "")

    # Session.request is what requests.get/post/... and Session.get/post/... all call; rewriting
    # here, before the environment's proxy settings are looked up, keeps them right for the new host.
    original = requests.Session.request

    def request(self, method, url, *args, **kwargs):
        return original(self, method, reroute(url), *args, **kwargs)

    requests.Session.request = request


try:
    _install()
except Exception as error:  # Never break interpreter start-up.
    import sys

    print("sandbox routing not installed: %r" % (error,), file=sys.stderr)
