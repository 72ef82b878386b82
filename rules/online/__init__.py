"""Online play: the server holds the bag and the racks; the computer opponent."""
