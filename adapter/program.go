package adapter

import "github.com/agentevals-go/agentevals/suite"

// FindProgram makes the preflight's check of a command or worker agent's
// program (found on PATH, or the file it names exists and is executable)
// without starting it; nil for other agents. validate uses it so that a
// suite naming a missing program fails there, not at run's preflight.
func FindProgram(cfg suite.AgentConfig) error {
	if cfg.Type != suite.AgentCommand && cfg.Type != suite.AgentWorker || len(cfg.Command) == 0 {
		return nil
	}
	return probeProgram(cfg.Command[0], cfg.Dir)
}
