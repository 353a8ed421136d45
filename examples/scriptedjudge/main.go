// Command scriptedjudge serves a scripted OpenAI-compatible judge on a
// local port, to try judge features (--gate ci, --repeat, calibrate)
// without a model or a key:
//
//	go run ./examples/scriptedjudge -addr 127.0.0.1:8089 &
//	OPENAI_API_KEY=offline evalrun run examples/llm_judge/suite.json --judge-base-url http://127.0.0.1:8089/v1
//
// Its verdicts are rules (see package judge), never a model's opinion:
// use it to learn the commands, never to measure an agent.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentevals-go/agentevals/examples/scriptedjudge/judge"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8089", "Address to listen on (port 0: any free port; the URL is printed).")
	noise := flag.Float64("noise", 0.02, "Move each score by up to this much, as a real judge's scores vary (0: always the same score).")
	seed := flag.Uint64("seed", 1, "Seed of the noise.")
	flag.Parse()
	if err := serve(*addr, &judge.Handler{Noise: *noise, Seed: *seed}); err != nil {
		fmt.Fprintln(os.Stderr, "scriptedjudge:", err)
		os.Exit(1)
	}
}

// serve listens on addr, prints the judge's base URL and serves until
// SIGINT or SIGTERM.
func serve(addr string, h http.Handler) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("scripted judge at http://%s/v1 (give it as --judge-base-url; any OPENAI_API_KEY)\n", l.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
