"""Tools for developing draughtsboard from a source checkout; never installed (the wheel
holds only ``draughtsboard``): what runs here is not what runs on a board."""
