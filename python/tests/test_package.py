"""The package: the extension inside it, stubs and py.typed beside it, and stubs that agree with
the module (names, parameter names, defaults), every function documented and inspectable."""

import ast
import inspect
import os
import pydoc
import unittest

import hitscan
import hitscan.io


def stub_functions(path):
    """{qualified name: [[(parameter name, default source or None), ...], one list per overload]}
    from a stub file (None for a class, "property" for a property, "constant" for an annotated name)."""
    tree = ast.parse(open(path).read())
    found = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.AnnAssign) and not node.target.id.startswith("_"):
                found[prefix + node.target.id] = "constant"
            elif isinstance(node, ast.ClassDef):
                found[prefix + node.name] = None
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                    found[prefix + node.name] = "property"
                    continue
                a = node.args
                positional = a.posonlyargs + a.args
                defaults = [None] * (len(positional) - len(a.defaults)) + [ast.unparse(d) for d in a.defaults]
                params = list(zip([p.arg for p in positional], defaults))
                if a.vararg:
                    params.append(("*" + a.vararg.arg, None))
                params += [(p.arg, None if d is None else ast.unparse(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
                if a.kwarg:
                    params.append(("**" + a.kwarg.arg, None))
                found.setdefault(prefix + node.name, []).append(params)

    visit(tree.body, "")
    return found


def runtime_parameters(function):
    out = []
    for p in inspect.signature(function).parameters.values():
        name = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        out.append((name, None if p.default is p.empty else p.default))
    return out


class PackageTest(unittest.TestCase):
    def test_layout(self):
        here = os.path.dirname(hitscan.__file__)
        self.assertEqual(os.path.basename(hitscan.__file__), "__init__.py")
        self.assertEqual(os.path.dirname(hitscan._hitscan.__file__), here)
        for name in ("__init__.pyi", "io.pyi", "py.typed"):
            self.assertTrue(os.path.exists(os.path.join(here, name)), name)
        self.assertIs(hitscan.io.load_mesh, hitscan._hitscan.io.load_mesh)
        self.assertEqual(hitscan.Scene.__module__, "hitscan")
        self.assertEqual(hitscan.io.Mesh.__module__, "hitscan.io")

    def check_stubs(self, stub, module):
        functions = stub_functions(os.path.join(os.path.dirname(hitscan.__file__), stub))
        self.assertTrue(functions)
        for name, params in functions.items():
            owner, _, attr = name.rpartition(".")
            obj = getattr(getattr(module, owner) if owner else module, attr)
            self.assertTrue(obj.__doc__, name)
            if params in (None, "property", "constant"):
                continue
            # CPython knows one signature of an overloaded function: that of one of the stub's overloads.
            got = runtime_parameters(obj)
            matching = [o for o in params if [p for p, _ in o] == [p for p, _ in got]]
            self.assertTrue(matching, f"{name}: {got} is none of {params}")
            for (p, default), (_, stub_default) in zip(got, matching[0]):
                if default is not None and stub_default not in (None, "..."):
                    self.assertEqual(default, ast.literal_eval(stub_default), f"{name}({p})")
        # Everything public at runtime is in the stubs.
        for attr in dir(module):
            if not attr.startswith("_") and not inspect.ismodule(getattr(module, attr)):
                self.assertIn(attr, functions, f"{stub}: {attr}")

    def test_stubs_match_the_module(self):
        self.check_stubs("__init__.pyi", hitscan)
        self.check_stubs("io.pyi", hitscan.io)
        for attr in dir(hitscan.Scene):
            if not attr.startswith("_"):
                self.assertIn("Scene." + attr, stub_functions(os.path.join(os.path.dirname(hitscan.__file__),
                                                                           "__init__.pyi")), attr)

    def test_every_function_is_documented_and_inspectable(self):
        scene = hitscan.Scene()
        for attr in dir(hitscan.Scene):
            if attr.startswith("_") or attr in ("INVALID_ID", "geometry_count"):
                continue
            method = getattr(scene, attr)
            self.assertGreater(len(inspect.getdoc(method) or ""), 40, attr)
            self.assertNotIn("self", inspect.signature(method).parameters, attr)
        self.assertEqual(list(inspect.signature(hitscan.Scene).parameters), ["nthreads"])
        self.assertEqual(inspect.signature(hitscan.Scene.test_occlusions).parameters["tfar"].default, float("inf"))
        text = pydoc.render_doc(hitscan.Scene, renderer=pydoc.plaintext)
        self.assertIn("cast_rays(self, rays, nthreads=0)", text)
        self.assertIn("create_rays_pinhole(fov_deg, center, eye, up, width_px, height_px)", text)  # both forms
        self.assertIn("load_mesh(path, *, read_normals=True", pydoc.render_doc(hitscan.io.load_mesh, renderer=pydoc.plaintext))


if __name__ == "__main__":
    unittest.main()
