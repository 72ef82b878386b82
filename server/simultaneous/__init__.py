"""A simultaneous on the server: created and sealed (``create``), its sealed games handed to
the centres' draws and closes (``sealed``), its standings followed across every centre and
sent to their phones (``live``), and its results published (``server.http.simultaneous``)."""
