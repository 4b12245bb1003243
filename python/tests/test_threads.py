"""Threads: results do not depend on nthreads or on concurrent Python callers, and the GIL is released
while a query runs."""

import sys
import threading
import time
import unittest

import numpy as np

import hitscan
import reference as ref


def sphere_scene(subdivisions=4):
    v, f = ref.icosphere(subdivisions)
    scene = hitscan.Scene()
    scene.add_triangles(v, f)
    scene.add_capsule((2, 0, -1), (2, 0, 1), 0.3)
    return scene


class NthreadsTest(unittest.TestCase):
    def test_results_do_not_depend_on_nthreads(self):
        scene = sphere_scene(3)
        rng = np.random.default_rng(12)
        rays = ref.random_rays(rng, 20000, target_radius=2.0)
        points = rng.uniform(-2, 2, size=(5000, 3)).astype(np.float32)
        serial = scene.cast_rays(rays, nthreads=1)
        for n in (0, 3):
            got = scene.cast_rays(rays, nthreads=n)
            for key in serial:
                np.testing.assert_array_equal(got[key], serial[key], err_msg=f"{key} nthreads={n}")
            np.testing.assert_array_equal(scene.count_intersections(rays, nthreads=n),
                                          scene.count_intersections(rays, nthreads=1))
            a, b = scene.list_intersections(rays, nthreads=n), scene.list_intersections(rays, nthreads=1)
            for key in a:
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)
            np.testing.assert_array_equal(scene.compute_signed_distance(points, nthreads=n),
                                          scene.compute_signed_distance(points, nthreads=1))

    def test_concurrent_python_threads_agree(self):
        scene = sphere_scene(3)
        rays = ref.random_rays(np.random.default_rng(13), 50000, target_radius=2.0)
        want = scene.cast_rays(rays)["t_hit"]
        results, errors = [None] * 4, []

        def work(i):
            try:
                results[i] = scene.cast_rays(rays)["t_hit"]
            except Exception as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        for got in results:
            np.testing.assert_array_equal(got, want)


class GilTest(unittest.TestCase):
    def test_another_thread_runs_during_a_query(self):
        # The main thread holds the GIL throughout (a long switch interval, nothing that blocks)
        # except inside the query. The worker can only count while the query runs if the query
        # released the GIL. With the GIL held, the count stays exactly 0 whatever the timing.
        scene = sphere_scene(4)
        rays = ref.random_rays(np.random.default_rng(14), 100000, target_radius=2.0)
        scene.commit()
        go, stop = threading.Event(), [False]
        counter = [0]

        def worker():
            go.wait()
            while not stop[0]:
                counter[0] += 1
                time.sleep(0.0005)  # hands the GIL back quickly once the query wants it again

        old = sys.getswitchinterval()
        sys.setswitchinterval(5.0)  # longer than the test: the main thread never yields on its own
        thread = threading.Thread(target=worker)
        thread.start()
        ran = 0
        try:
            go.set()
            for _ in range(10):
                before = counter[0]
                scene.cast_rays(rays)
                ran = counter[0] - before
                if ran > 0:
                    break
        finally:
            stop[0] = True
            sys.setswitchinterval(old)
            thread.join()
        self.assertGreater(ran, 0, "no other Python thread ran while cast_rays was in flight")


if __name__ == "__main__":
    unittest.main()
