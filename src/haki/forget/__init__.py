"""Forget: each owner removes its rows, in one transaction, with a receipt of counts."""

from .service import forget, subject_reference
from .types import ForgetMode, ForgetReceipt, ForgetRequest

__all__ = ["ForgetMode", "ForgetReceipt", "ForgetRequest", "forget", "subject_reference"]
