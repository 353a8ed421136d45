package compare

import "github.com/agentevals-go/agentevals/models"

// productionMismatch says why a production window and a suite run are
// never each other's baseline: they score different questions.
func productionMismatch(run, candidate *models.Run) string {
	if models.IsProduction(candidate) {
		return "run " + candidate.ID.String() + " scored production traces (a monitor's window), not this suite's questions"
	}
	return "run " + candidate.ID.String() + " ran a suite's questions, not a monitor's window of production traces"
}
