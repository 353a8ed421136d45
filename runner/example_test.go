package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// A Go function agent answering the offline support suite.
func ExampleExecute() {
	s, err := suite.Load(filepath.Join("..", "examples", "support", "suite.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	policies := map[string]string{
		"returns":  "You can return it within 30 days.",
		"shipping": "Standard shipping takes 3 to 5 business days.",
		"warranty": "Electronics carry a 7-year warranty.", // wrong on purpose
	}
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal(policies[q.ID])
		args, _ := json.Marshal(map[string]string{"topic": q.ID})
		return agent.Response{Output: out, Actions: []score.Action{{Group: "policies", Name: "lookup_policy", Arguments: args}}}, nil
	})
	run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{Concurrency: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range run.Cases {
		fmt.Printf("%s %s quality %.3f\n", c.CaseID, c.Status, *c.Quality())
	}
	// Output:
	// returns passed quality 1.000
	// shipping passed quality 1.000
	// warranty failed quality 0.500
}
