"""One exception base per package, each error also a builtin: every exception class the product
defines derives from its package's base (``DeviceError``, ``DriverError``, ``GameError``) and
from a builtin a caller would catch, so ``except DeviceError`` at the CLI's edge sees them all."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from spielleiter.device import DeviceError
from spielleiter.drivers import DriverError
from spielleiter.games import GameError

BASES = {"spielleiter.device": DeviceError, "spielleiter.drivers": DriverError,
         "spielleiter.games": GameError}


def errors(package: str) -> list[type[BaseException]]:
    found = []
    top = importlib.import_module(package)
    for info in pkgutil.walk_packages(top.__path__, package + "."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, BaseException) and cls.__module__ == info.name]
    return found


@pytest.mark.parametrize("package", sorted(BASES))
def test_every_error_of_a_package_derives_from_its_base_and_a_builtin(package):
    found = errors(package)
    assert found
    wrong = [f"{cls.__module__}.{cls.__name__}" for cls in found
             if not issubclass(cls, BASES[package])
             or not any(base.__module__ == "builtins" and base is not Exception
                        for base in cls.__mro__[1:])]
    assert wrong == []
