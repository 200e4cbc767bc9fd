package io.fournines.nexmark.fournines;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends this member's results to the active-active result consumer over one loopback TCP
 * connection, as text lines ({@link ResultConsumer} reads them). The sink tasklets only offer
 * lines to a bounded queue (a full queue is backpressure: the sink retries, it never blocks its
 * worker); a dedicated thread connects, writes and flushes whenever the queue runs empty. If the
 * consumer goes away the copy goes on and its lines are discarded: the run is ending anyway.
 */
final class ResultForwarder implements AutoCloseable {

    private static final int QUEUE_LINES = 1 << 16;
    /** The consumer may start after the copy: it is retried this long. */
    private static final long CONNECT_FOR_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final String END = "";

    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(QUEUE_LINES);
    private final Thread sender;
    private volatile boolean broken;

    /** Starts connecting at once; the first line says which copy and member this is, and the copies' start instant. */
    ResultForwarder(ActiveActiveCopy copy, int member, int members, PrintStream err) {
        queue.add("H\t" + copy.copy() + "\t" + member + "\t" + members + "\t" + copy.startEpochNanos());
        sender = new Thread(() -> send(copy.consumer(), err), "result-forwarder");
        sender.setDaemon(true);
        sender.start();
    }

    /** Queues one line (without its newline); false when the queue is full: try again later. */
    boolean offer(String line) {
        return broken || queue.offer(line);
    }

    private void send(InetSocketAddress consumer, PrintStream err) {
        try (Socket socket = connect(consumer);
             Writer out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            socket.setTcpNoDelay(true);
            while (true) {
                String line = queue.take();
                if (line == END) {
                    out.flush();
                    return;
                }
                out.write(line);
                out.write('\n');
                if (queue.isEmpty()) {
                    out.flush();
                }
            }
        } catch (IOException e) {
            err.println("member: the result consumer at " + consumer + " is gone (" + e.getMessage() + "); this copy's results are discarded from now on");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            broken = true;
            queue.clear();
        }
    }

    private static Socket connect(InetSocketAddress consumer) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + CONNECT_FOR_NANOS;
        while (true) {
            try {
                return new Socket(consumer.getAddress(), consumer.getPort());
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("cannot connect within " + TimeUnit.NANOSECONDS.toSeconds(CONNECT_FOR_NANOS) + " s: " + e.getMessage(), e);
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    /** Sends what is queued (waiting up to a second for room), then closes the connection. */
    @Override
    public void close() throws InterruptedException {
        if (!broken && !queue.offer(END, 1, TimeUnit.SECONDS)) {
            sender.interrupt();
        }
        sender.join(TimeUnit.SECONDS.toMillis(2));
    }
}
