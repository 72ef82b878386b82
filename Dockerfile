# The table server, as one image for every replica: `tilestream serve` on port 8000.
#
# Dependencies first, from pyproject.toml alone, in a layer of their own: a change to the
# source rebuilds only the layers after it, not numba and numpy. Then the project itself,
# installed as a package (the phone app is inside it), and `tilestream compile`: the move
# generator's compiled search (NUMBA_CACHE_DIR) and every list's word graph
# (TILESTREAM_CACHE), made once in the image. The image's user owns that folder: numba
# only uses a cache it can write, and a club's own list (--wordlist) keeps its graph there.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TILESTREAM_CACHE=/var/cache/tilestream \
    NUMBA_CACHE_DIR=/var/cache/tilestream/numba

WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install -r requirements.txt

COPY . .
RUN pip install --no-deps . \
    && tilestream compile \
    && useradd --system --no-create-home --home-dir /data tilestream \
    && mkdir /data && chown tilestream /data \
    && chown -R tilestream "$TILESTREAM_CACHE"

USER tilestream
WORKDIR /data
EXPOSE 8000

# Port 8000 only answers the proxy on the compose network; /health says which store serves.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)"]

# REDIS_URL set: tables live in Redis and any number of replicas serve them.
# Unset: an SQLite file in /data (one process only; mount a volume there).
CMD ["tilestream", "serve", "--host", "0.0.0.0", "--port", "8000", "--data", "/data"]
