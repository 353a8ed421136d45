package dashboard

import (
	"bytes"
	"net"
)

// Listener wraps ln so that the replies net/http writes itself, without
// calling the handler (431 for headers over http.Server.MaxHeaderBytes,
// 400 for a malformed request), carry the dashboard's security headers
// like every page. evaldash serves through it.
func Listener(ln net.Listener) net.Listener { return listener{ln} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return conn{c}, nil
}

type conn struct{ net.Conn }

// Write adds the security headers to a reply of net/http's own: one write
// of a whole 4xx or 5xx response that closes the connection and has no
// Content-Security-Policy (every reply of the handler has one, set first
// in ServeHTTP).
func (c conn) Write(p []byte) (int, error) {
	if !ownReply(p) {
		return c.Conn.Write(p)
	}
	line := bytes.IndexByte(p, '\n') + 1
	out := make([]byte, 0, len(p)+len(securityHeaderLines))
	out = append(append(append(out, p[:line]...), securityHeaderLines...), p[line:]...)
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ownReply recognises net/http's direct error replies.
func ownReply(p []byte) bool {
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 4")) && !bytes.HasPrefix(p, []byte("HTTP/1.1 5")) {
		return false
	}
	end := bytes.Index(p, []byte("\r\n\r\n"))
	if end < 0 {
		return false
	}
	head := bytes.ToLower(p[:end])
	return bytes.Contains(head, []byte("\r\nconnection: close")) && !bytes.Contains(head, []byte("content-security-policy"))
}

// securityHeaderLines are the headers of securityHeaders as they go on the
// wire.
var securityHeaderLines = func() []byte {
	var b bytes.Buffer
	for _, h := range securityHeaders {
		b.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	return b.Bytes()
}()

// securityHeaders go on every reply.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", contentSecurityPolicy},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"X-Frame-Options", "DENY"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}
