"""The shared reader of the games' TOML data files: one-line errors naming the file and key."""

import pytest

from sim.core.datafile import DataFileError, read_data_file
from sim.games.celtae.params import DATA_FILE as CELTAE
from sim.games.celtic_trader.params import DATA_FILE as CELTIC_TRADER
from sim.games.celtica.params import DATA_FILE as CELTICA


@pytest.mark.parametrize("path", [CELTAE, CELTICA, CELTIC_TRADER])
def test_every_shipped_data_file_reads_with_its_game_table(path):
    assert "game" in read_data_file(path, ("game",))


def test_malformed_toml_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[game\nplayers = 2\n")
    with pytest.raises(DataFileError, match=r"^broken\.toml: not valid TOML") as err:
        read_data_file(path, ("game",))
    assert "\n" not in str(err.value)


def test_a_missing_table_names_the_file_and_the_key(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text("[game]\nplayers = 2\n")
    with pytest.raises(DataFileError, match=r"^short\.toml: 'leaders' is missing$"):
        read_data_file(path, ("game", "leaders"))
