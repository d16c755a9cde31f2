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
 * Reads "WIDTH HEIGHT MINES ROW COLUMN" (the board and the first click) and then one game a line,
 * "INDEX CELL CELL ..." (its mines), on standard input; plays each with the solver's bulk settings
 * (SMALL_ANALYSIS, one thread, no flags); prints "INDEX 1" (won) or "INDEX 0" a game, then
 * "cpu SECONDS" (this thread's CPU time over the games, the JVM's start-up left out).
 */
public class PlayLayouts {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        // the answers alone on standard output: what the solver itself prints goes to standard error
        PrintStream out = System.out;
        System.setOut(System.err);
        String[] size = in.readLine().trim().split(" ");
        GameSettings game = GameSettings.create(
            Integer.parseInt(size[0]), Integer.parseInt(size[1]), Integer.parseInt(size[2]));
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        settings.setStartLocation(new Location(Integer.parseInt(size[4]), Integer.parseInt(size[3])));
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        long start = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        String line;
        while ((line = in.readLine()) != null) {
            String[] fields = line.trim().split(" ");
            int index = Integer.parseInt(fields[0]);
            int[] mines = new int[fields.length - 1];
            for (int i = 1; i < fields.length; i++) {
                mines[i - 1] = Integer.parseInt(fields[i]);
            }
            out.println(index + " " + (play(new LayoutGame(game, index, mines), settings, cache) ? 1 : 0));
        }
        long stop = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        out.println("cpu " + (stop - start) / 1e9);
    }

    /** One game, played as the solver's own bulk runner plays it: every move it returns, in turn. */
    static boolean play(LayoutGame game, SolverSettings settings, BinomialCache cache) {
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        for (int round = 0; round < 10000; round++) {
            solver.start();
            Action[] moves = solver.getResult();
            if (moves.length == 0) {
                throw new IllegalStateException(game.showGameKey() + ": the solver returned no move");
            }
            for (Action move : moves) {
                game.doAction(move);
                int state = game.getGameState();
                if (state == GameStateModel.WON) {
                    return true;
                }
                if (state == GameStateModel.LOST) {
                    return false;
                }
            }
        }
        throw new IllegalStateException(game.showGameKey() + ": no end after 10000 rounds");
    }
}
