// Package agent is the contract between a run and the agent under test:
// the Question it is asked, the Response it gives, Func to answer from a Go
// function, and the call's trace context and HTTP client. It links no model
// SDK; the command, worker, http and llm agents are in package adapter.
package agent
