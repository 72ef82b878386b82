# The table server, as one image for every replica: `tilestream serve` on port 8000.
#
# The project is installed in editable mode from /app on purpose: server/http/app.py serves the
# phone app from the source tree (`web/` beside `server/`), which a plain `pip install .`
# would leave behind (site-packages has no web/). So /app is the code that runs.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . /app

RUN pip install -e . \
    && tilestream compile \
    && useradd --system --no-create-home --home-dir /app tilestream \
    && mkdir /app/data && chown tilestream /app/data

USER tilestream
EXPOSE 8000

# Port 8000 only answers the proxy on the compose network; /health says which store serves.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)"]

# REDIS_URL set: tables live in Redis and any number of replicas serve them.
# Unset: an SQLite file in /app/data (one process only; mount a volume there).
CMD ["tilestream", "serve", "--host", "0.0.0.0", "--port", "8000", "--data", "/app/data"]
