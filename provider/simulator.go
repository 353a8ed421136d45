package provider

import (
	"context"

	"github.com/agentevals-go/agentevals/llm"
)

// SimulateUser asks the judge's model for the next message of the user it
// plays in a simulated conversation: system describes the user and the
// reply format, history is the conversation from the user's side (its own
// messages as the assistant's). The call is accounted like a verdict, in
// Totals and in ctx's models.UsageRecorder, but never cached: a simulated user
// must see the conversation it is in. The reply is the model's text; the
// caller parses it.
func (j *Judge) SimulateUser(ctx context.Context, system string, history []llm.ChatMessage) (string, error) {
	s := j.client.Settings()
	reply, err := j.client.Chat(ctx, system, history, true)
	j.account(ctx, callAccount(s, j.client.prices, reply.Usage, len(reply.Attempts), err != nil))
	return reply.Text, err
}
