"""The duplicate room: racks drawn, slips, the round's top, the view a seat may have."""
