// Command serve runs the scripted OpenAI-compatible server of
// examples/conversation on -addr until interrupted.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/agentevals-go/agentevals/examples/conversation/scripted"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8319", "listen address")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	fmt.Printf("scripted provider at http://%s/v1\n", ln.Addr())
	if err := http.Serve(ln, scripted.Handler()); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
