"""Kings of War (seed 004) on a continuous table: pure rules, no Django."""
