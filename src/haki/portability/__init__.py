"""Export a project's or a subject's memory as JSON lines; import it into another project."""

from .export import export_lines, subject_exists
from .format import dump_line
from .importer import ImportCounts, import_into, import_lines

__all__ = [
    "ImportCounts",
    "dump_line",
    "export_lines",
    "import_into",
    "import_lines",
    "subject_exists",
]
