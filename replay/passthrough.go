package replay

// What a disarmed Proxy does: it passes requests through as if there were
// no proxy (see Proxy.Arm).

import (
	"io"
	"net"
	"net/http"
	"sync"
)

// tunnel connects a CONNECT request to its target without looking inside:
// the proxy is disarmed, so the client talks to the real server (and
// checks its real certificate).
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request, target string) {
	var d net.Dialer
	up, err := d.DialContext(r.Context(), "tcp", target)
	if err != nil {
		http.Error(w, "proxy: connect "+target+": "+err.Error(), http.StatusBadGateway)
		return
	}
	defer up.Close()
	conn, rw, ok := p.establish(w, true)
	if !ok {
		return
	}
	defer p.untrack(conn)
	defer conn.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // client to server; a clean end half-closes, an error (or Arm) ends both ways
		defer wg.Done()
		if _, err := io.Copy(up, rw.Reader); err == nil {
			if cw, ok := up.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
				return
			}
		}
		up.Close()
	}()
	go func() { // server to client
		defer wg.Done()
		io.Copy(conn, up)
		conn.Close()
	}()
	wg.Wait()
}

// passThrough sends req to its host as is (the proxy is disarmed).
func (p *Proxy) passThrough(req *http.Request) (*http.Response, error) {
	return p.relay(req, req.Body, req.ContentLength)
}
