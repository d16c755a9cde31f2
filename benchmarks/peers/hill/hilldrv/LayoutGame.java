package hilldrv;

import java.util.Collection;
import java.util.List;
import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * A game of David Hill's solver on a layout given from outside (the analyzer's benchmark), so both
 * play the same games. Cells are numbered row by row, as the analyzer numbers them.
 */
public class LayoutGame extends GameStateModelViewer {
    private final int[][] value;
    private final int[] mineCells;

    public LayoutGame(GameSettings settings, long key, int[] mineCells) {
        super(settings, key);
        this.value = new int[width][height];
        this.mineCells = mineCells;
    }

    @Override
    protected void startHandle(Location first) {
        for (int cell : mineCells) {
            int x = cell % width;
            int y = cell / width;
            if (x == first.x && y == first.y) {
                throw new IllegalStateException("the first click " + first + " is on a mine of the given layout");
            }
            value[x][y] = GameStateModel.MINE;
        }
        for (int cell : mineCells) {
            int x = cell % width;
            int y = cell / width;
            for (int k = 0; k < DX.length; k++) {
                int a = x + DX[k];
                int b = y + DY[k];
                if (a >= 0 && a < width && b >= 0 && b < height && value[a][b] != GameStateModel.MINE) {
                    value[a][b]++;
                }
            }
        }
    }

    /** The solver may ask the game to reveal cells only in modes the benchmark does not use. */
    @Override
    public List<Action> identifyLocations(Collection<? extends Location> locs) {
        throw new UnsupportedOperationException("the benchmark's games do not reveal the layout to the solver");
    }

    @Override
    protected void placeFlagHandle(Location m) {
    }

    @Override
    protected int queryHandle(int x, int y) {
        return value[x][y];
    }

    @Override
    protected boolean clearSquareHitMine(Location m) {
        if (value[m.x][m.y] == 0) {
            explode(m);
        }
        return value[m.x][m.y] == GameStateModel.MINE;
    }

    @Override
    protected boolean clearSurroundHandle(Location m) {
        for (int k = 0; k < DX.length; k++) {
            int a = m.x + DX[k];
            int b = m.y + DY[k];
            if (a >= 0 && a < width && b >= 0 && b < height) {
                clearSquare(new Location(a, b));
            }
        }
        return true;
    }

    @Override
    public int privilegedQuery(Location m, boolean showMines) {
        int shown = query(m);
        if (shown == GameStateModel.MINE) {
            return GameStateModel.EXPLODED_MINE;
        }
        if (showMines && shown == GameStateModel.HIDDEN && value[m.x][m.y] == GameStateModel.MINE) {
            return GameStateModel.MINE;
        }
        return shown;
    }

    @Override
    public String showGameKey() {
        return "layout " + seed;
    }

    @Override
    public boolean supports3BV() {
        return true;
    }
}
