"""hitscan: exact, watertight ray and point queries on triangle meshes and shapes.

Scene follows the conventions of Open3D's open3d.t.geometry.RaycastingScene (the same method
names, argument names, dictionary keys, dtypes and miss values), taking and returning numpy arrays,
so that code written for it ports by changing the import. Every query releases the GIL and runs
over all cores (nthreads=0), or nthreads threads; Ctrl-C stops it with KeyboardInterrupt.
hitscan.io.load_mesh reads meshes from files.
"""

import inspect as _inspect

from . import io
from ._hitscan import DRAPE_GAP_BRIDGED, DRAPE_NO_SURFACE, DRAPE_ON_SURFACE, INVALID_ID, Scene, __version__

__all__ = ["DRAPE_GAP_BRIDGED", "DRAPE_NO_SURFACE", "DRAPE_ON_SURFACE", "INVALID_ID", "Scene", "__version__", "io"]

# inspect.signature() of a class whose __init__ is built in reads the class's __signature__: that
# of __init__ (from its docstring's text signature) without self.
_init = _inspect.signature(Scene.__init__)
Scene.__signature__ = _init.replace(parameters=list(_init.parameters.values())[1:])
del _init
