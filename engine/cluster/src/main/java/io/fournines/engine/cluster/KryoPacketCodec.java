package io.fournines.engine.cluster;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import io.fournines.engine.core.ClassAllowList;
import io.fournines.engine.network.PacketCodec;
import io.fournines.engine.network.PacketReader;
import io.fournines.engine.network.PacketWriter;
import org.objenesis.strategy.StdInstantiatorStrategy;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Packets encoded with Kryo. Classes go by name, not by registration (a job's item types are the
 * application's, and both ends run the same code); a name read is loaded without initialising the
 * class and refused unless {@link ClassAllowList} allows it, before anything is instantiated, so a
 * packet cannot make a member run an arbitrary class's code. Kryo is reset per packet, not per
 * item, so a class name is written once per packet and an id after that, and every packet still
 * decodes on its own.
 */
public final class KryoPacketCodec implements PacketCodec {

    static Kryo newKryo() {
        Kryo kryo = new Kryo(new AllowListedClassResolver(), null);
        kryo.setRegistrationRequired(false);
        kryo.setReferences(false);
        kryo.setAutoReset(false);
        // Records and classes without a no-argument constructor (results, accumulators).
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        return kryo;
    }

    /**
     * Kryo's resolver, refusing a class name outside the allow-list as it is read. Every item whose
     * class goes by name passes here, so the classes allowed once are remembered (the list only grows).
     */
    private static final class AllowListedClassResolver extends DefaultClassResolver {
        private final Set<Class<?>> allowed = Collections.newSetFromMap(new IdentityHashMap<>());

        @Override
        protected Registration readName(Input input) {
            Registration registration = super.readName(input);
            if (registration == null || allowed.contains(registration.getType())) {
                return registration;
            }
            if (!ClassAllowList.allows(registration.getType())) {
                throw new KryoException("class " + registration.getType().getName() + " is not allowed from other members"
                        + " (ClassAllowList)");
            }
            allowed.add(registration.getType());
            return registration;
        }
    }

    @Override
    public PacketWriter newWriter() {
        return new Writer();
    }

    @Override
    public PacketReader newReader() {
        return new Reader();
    }

    private static final class Writer implements PacketWriter {
        private final Kryo kryo = newKryo();
        private final Output output = new Output(4_096, -1);

        @Override
        public void reset() {
            output.reset();
            kryo.reset();
        }

        @Override
        public void writeInt(int value) {
            output.writeVarInt(value, false);
        }

        @Override
        public void writeLong(long value) {
            output.writeLong(value);
        }

        @Override
        public void writeObject(Object item) {
            kryo.writeClassAndObject(output, item);
        }

        @Override
        public int size() {
            return output.position();
        }

        @Override
        public byte[] toBytes() {
            return output.toBytes();
        }
    }

    private static final class Reader implements PacketReader {
        private final Kryo kryo = newKryo();
        private final Input input = new Input();

        @Override
        public void reset(byte[] packet) {
            input.setBuffer(packet);
            kryo.reset();
        }

        @Override
        public boolean hasMore() {
            return input.position() < input.limit();
        }

        @Override
        public int readInt() {
            return input.readVarInt(false);
        }

        @Override
        public long readLong() {
            return input.readLong();
        }

        @Override
        public Object readObject() {
            return kryo.readClassAndObject(input);
        }
    }
}
