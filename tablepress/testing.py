"""The shared contract checks as a game package's own tests: one line in a test module runs them all.

    from tablepress.testing import contract_tests
    from my_game import PACKAGE

    test_contract = contract_tests(PACKAGE)

Each check of `tablepress.core.contract` (the checker and the asking-order check at every player count the
package declares, its recorded fingerprint, its terminal view, faces, components, intro and rules) is one
test item, `test_contract[checker-2p]`, ..., failing with the same one line `tablepress check` prints.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .core.contract import ContractCheck, ContractFailure, contract_checks
from .core.package import GamePackage


def contract_tests(package: GamePackage) -> Callable[[ContractCheck], None]:
    """A test function parametrized by every contract check of `package` (assign it to a `test_` name)."""

    @pytest.mark.parametrize("check", contract_checks(package), ids=lambda check: check.id)
    def test_contract(check: ContractCheck) -> None:
        """One contract check of the package passes."""
        try:
            check.run()
        except ContractFailure as exc:
            pytest.fail(f"{package.name}: {check.name}: {exc}", pytrace=False)

    return test_contract
