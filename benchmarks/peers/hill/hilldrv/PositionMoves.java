package hilldrv;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Reads "WIDTH HEIGHT MINES ROW COLUMN" (the board and the first click) and then one position a
 * line, "KEY SHOWN CELL CELL ...": SHOWN is the position row by row, a digit for a shown number and
 * H for a hidden cell, and the cells are the game's mines. Each position is reached on that layout
 * by the first click and then a click on every shown cell still hidden; the solver (bulk settings:
 * SMALL_ANALYSIS, one thread, no flags) is asked its move there. Prints "KEY CELL" (the cell it
 * opens, numbered row by row), or "KEY mismatch" when the clicks did not reach the position.
 */
public class PositionMoves {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        // the answers alone on standard output: what the solver itself prints goes to standard error
        PrintStream out = System.out;
        System.setOut(System.err);
        String[] size = in.readLine().trim().split(" ");
        int width = Integer.parseInt(size[0]);
        GameSettings game = GameSettings.create(width, Integer.parseInt(size[1]), Integer.parseInt(size[2]));
        Location first = new Location(Integer.parseInt(size[4]), Integer.parseInt(size[3]));
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        String line;
        while ((line = in.readLine()) != null) {
            String[] fields = line.trim().split(" ");
            String shown = fields[1];
            int[] mines = new int[fields.length - 2];
            for (int i = 2; i < fields.length; i++) {
                mines[i - 2] = Integer.parseInt(fields[i]);
            }
            LayoutGame position = new LayoutGame(game, 0, mines);
            position.doAction(new Action(first, Action.CLEAR));
            for (int cell = 0; cell < shown.length(); cell++) {
                Location at = new Location(cell % width, cell / width);
                if (shown.charAt(cell) != 'H' && position.query(at) == GameStateModel.HIDDEN) {
                    position.doAction(new Action(at, Action.CLEAR));
                }
            }
            boolean reached = position.getGameState() == GameStateModel.STARTED;
            for (int cell = 0; cell < shown.length() && reached; cell++) {
                int value = position.query(new Location(cell % width, cell / width));
                boolean open = value != GameStateModel.HIDDEN && value != GameStateModel.FLAG;
                reached = open == (shown.charAt(cell) != 'H');
            }
            if (!reached) {
                out.println(fields[0] + " mismatch");
                continue;
            }
            Solver solver = new Solver(position, settings, false);
            solver.setPlayStyle(PlayStyle.NO_FLAG);
            solver.setBinomialCache(cache);
            solver.start();
            Action[] moves = solver.getResult();
            if (moves.length == 0) {
                throw new IllegalStateException("position " + fields[0] + ": the solver returned no move");
            }
            out.println(fields[0] + " " + (moves[0].y * width + moves[0].x));
        }
    }
}
