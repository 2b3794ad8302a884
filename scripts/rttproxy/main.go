// Command rttproxy forwards TCP connections from -listen to -to, holding
// each chunk it reads for -delay before it writes it on, both ways: a
// database across a network, on one machine. The round trip it adds is
// the delay twice plus the timer's slack (here -delay 250us took a MariaDB
// `SELECT 1` from 0.07 to 2.4 ms; -delay 1us to 0.22 ms).
//
//	go run ./scripts/rttproxy -listen 127.0.0.1:3307 -to 127.0.0.1:3306 -delay 250us &
//	LAPSE_BENCH_MYSQL=mysql://root@127.0.0.1:3307 STORES=mysql scripts/bench-compare.sh …
package main

import (
	"flag"
	"io"
	"log"
	"net"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:3307", "address to listen on")
	to := flag.String("to", "127.0.0.1:3306", "address to forward to")
	delay := flag.Duration("delay", 250*time.Microsecond, "how long each chunk is held, each way")
	flag.Parse()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go forward(c, *to, *delay)
	}
}

// forward joins c to a new connection to addr, delaying both ways.
func forward(c net.Conn, addr string, delay time.Duration) {
	s, err := net.Dial("tcp", addr)
	if err != nil {
		log.Print(err)
		c.Close()
		return
	}
	go hold(s, c, delay)
	hold(c, s, delay)
}

// hold copies src to dst, each chunk delay late, and closes dst when src
// ends.
func hold(dst io.WriteCloser, src io.Reader, delay time.Duration) {
	defer dst.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			time.Sleep(delay)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
