"""``__all__`` of the consolidator packages lists exactly what they export."""

import haki.consolidator as consolidator
import haki.providers.extraction as extract


def test_all_is_exact():
    for module in (consolidator, extract):
        public = {
            n
            for n in vars(module)
            if not n.startswith("_") and n not in {"annotations", "TYPE_CHECKING"}
        }
        public -= {n for n in public if type(getattr(module, n)).__name__ == "module"}
        assert set(module.__all__) == public, module.__name__
