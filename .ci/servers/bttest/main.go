// Command bttest runs the in-memory Cloud Bigtable emulator of cloud.google.com/go/bigtable/bttest
// (Debian package golang-google-cloud-dev) on a TCP address, for rowkey's end-to-end tests.
//
// Built by .ci/servers/install.sh in GOPATH mode, offline, against /usr/share/gocode:
//
//	GO111MODULE=off GOPATH=<dir>:/usr/share/gocode go build -o bttest .
//
// Usage: bttest [-addr 127.0.0.1:8086]
//
// Prints "bttest listening on <addr>" once the gRPC server accepts connections, then blocks
// until SIGTERM or SIGINT, closes the server and exits 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8086", "TCP address to listen on (host:port; port 0 picks a free one)")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	log.SetPrefix("bttest: ")

	// Install the signal handler before serving, so a stop right after start is not lost.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)

	srv, err := bttest.NewServer(*addr)
	if err != nil {
		log.Fatalf("cannot listen on %s: %v", *addr, err)
	}

	// NewServer has bound the listener and started Serve in a goroutine; check that a gRPC client
	// really gets through (HTTP/2 handshake) before announcing readiness.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	conn, err := grpc.DialContext(ctx, srv.Addr, grpc.WithInsecure(), grpc.WithBlock())
	cancel()
	if err != nil {
		srv.Close()
		log.Fatalf("self-check: gRPC dial of %s failed: %v", srv.Addr, err)
	}
	conn.Close()

	fmt.Printf("bttest listening on %s\n", srv.Addr)
	os.Stdout.Sync()

	sig := <-sigs
	log.Printf("received %v, shutting down", sig)
	srv.Close()
	log.Printf("stopped")
}
