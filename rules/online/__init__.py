"""Online play: the server holds the bag and the racks, judges every word, and may play a seat."""
