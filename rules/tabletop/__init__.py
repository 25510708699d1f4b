"""What the table-top rule sets (Little Wars, Kriegspiel, Kings of War) share: terrain read as
shapely geometry, and geometry built once per scenario. Pure Python (shapely); no rule set here.
"""
