package io.fournines.engine.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every member of a cluster shares. It never travels: members prove they know it with
 * HMAC-SHA256 over fresh nonces, and management API calls carry a token derived from it.
 */
public final class ClusterSecret {

    /** The environment variable that holds the secret when no file is given. */
    public static final String ENV = "FOURNINES_CLUSTER_SECRET";
    private static final int MIN_LENGTH = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private ClusterSecret(byte[] key) {
        this.key = key;
    }

    public static ClusterSecret of(String secret, String origin) {
        String s = secret.strip();
        if (s.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(origin + ": the cluster secret must have at least " + MIN_LENGTH + " characters; has " + s.length());
        }
        return new ClusterSecret(s.getBytes(StandardCharsets.UTF_8));
    }

    /** From {@code file} if given, else from the {@value #ENV} environment variable. */
    public static ClusterSecret load(Path file) throws IOException {
        if (file != null) {
            try {
                return of(Files.readString(file), file.toString());
            } catch (java.nio.file.NoSuchFileException e) {
                throw new IllegalArgumentException(file + ": no such file (the cluster secret)");
            }
        }
        String env = System.getenv(ENV);
        if (env == null) {
            throw new IllegalArgumentException("no cluster secret: pass --secret-file FILE or set " + ENV);
        }
        return of(env, ENV);
    }

    static byte[] nonce() {
        byte[] n = new byte[32];
        RANDOM.nextBytes(n);
        return n;
    }

    /** HMAC-SHA256 of the parts, in order. */
    byte[] mac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** The bearer token of the management API: an HMAC of a fixed label, so the secret itself is never sent. */
    public String apiToken() {
        return HexFormat.of().formatHex(mac("fournines-management-api".getBytes(StandardCharsets.UTF_8)));
    }

    /** Compares in constant time, so the time taken tells an attacker nothing. */
    public boolean acceptsToken(String token) {
        return token != null && MessageDigest.isEqual(apiToken().getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    static boolean sameMac(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }
}
