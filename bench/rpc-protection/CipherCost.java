import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the ciphers of DIGEST-MD5's privacy layer cost a Java server: microseconds to encrypt one
 * buffer with 3DES (CBC, as "3des") and with RC4 (as "rc4"), and to sign it with HMAC-MD5, over
 * 20,000 rounds, three times.
 *
 * <p>usage: java bench/rpc-protection/CipherCost.java [BYTES]   (default 1024)
 */
public final class CipherCost {
  private static final int ROUNDS = 20_000;

  public static void main(String[] args) throws Exception {
    byte[] data = new byte[args.length > 0 ? Integer.parseInt(args[0]) : 1024];
    Cipher des3 = Cipher.getInstance("DESede/CBC/NoPadding");
    des3.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[24], "DESede"), new IvParameterSpec(new byte[8]));
    Cipher rc4 = Cipher.getInstance("RC4");
    rc4.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "RC4"));
    Mac hmac = Mac.getInstance("HmacMD5");
    hmac.init(new SecretKeySpec(new byte[16], "HmacMD5"));
    for (int round = 0; round < 3; round++) {
      System.out.printf("%d bytes: 3des %.1f us, rc4 %.1f us, hmac-md5 %.1f us%n", data.length,
          time(() -> des3.update(data)), time(() -> rc4.update(data)), time(() -> hmac.doFinal(data)));
    }
  }

  private interface Step {
    void run() throws Exception;
  }

  private static double time(Step step) throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < ROUNDS; i++) {
      step.run();
    }
    return (System.nanoTime() - start) / (ROUNDS * 1e3);
  }
}
