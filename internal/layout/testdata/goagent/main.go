package main

import (
	"context"
	"fmt"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
)

func main() {
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		text, _ := q.Text()
		return agent.Response{Output: []byte(fmt.Sprintf("%q", text)), Actions: []score.Action{{Name: "echo"}}}, nil
	})
	fmt.Println(a.Answer(context.Background(), agent.Question{Question: []byte(`"hi"`)}))
}
