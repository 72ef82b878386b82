"""The Starlette application, its HTTP API, and the uvicorn protocols it runs on."""
