package io.fournines.engine.cluster;

/**
 * Every kind of control message members send each other (in a {@link Frames#CONTROL} frame, with
 * the sender's view term, a job id and a text), in one place: job control ({@link JobControl}), restarts ({@link ClusterJob})
 * and snapshots ({@link ClusterSnapshots}).
 */
public enum ControlKind {
    /** To the coordinator: a job submitted to a member (text: its description). */
    SUBMIT(1),
    /** Coordinator to all: start the job at an instant (text: start epoch nanos, newline, description). */
    START(2),
    /** To all: the job failed (text: the cause, naming the member). */
    FAIL(4),
    /** To the coordinator: how this member's part ended (text: state and cause). */
    FINISHED(5),
    /** Coordinator to a member its view took in that does not run the job: the job it is to take part in (text: as START's). */
    ADOPT(6),
    /**
     * Coordinator to a member of its view whose part runs an attempt the job ended without (it was cut
     * off, and healed too late to be taken in): leave the part (text: how the job ended, and where).
     */
    LEAVE(7),
    /** Coordinator to the job's members: take snapshot N of attempt A (text: "A N"). */
    SNAPSHOT_START(16),
    /** To the coordinator: this member saved snapshot N and its backups hold it (text: "A N"). */
    SNAPSHOT_SAVED(17),
    /** Coordinator to the job's members, once every member recorded its decision: commit snapshot N (text: "A N"). */
    SNAPSHOT_COMMIT(18),
    /** To the coordinator: this member runs attempt A now (text: "A 0"). */
    ATTACHED(19),
    /** Coordinator to the job's members: snapshot N will be committed, record it before anyone commits it (text: "A N"). */
    SNAPSHOT_DECIDED(20),
    /** To the coordinator: this member recorded the decision to commit snapshot N (text: "A N"). */
    SNAPSHOT_RECORDED(21),
    /** Coordinator to the survivors: run attempt A from snapshot N (text: "A N members writers"). */
    RESTART(24),
    /** To the coordinator: this member's execution of attempt A failed (text: "A cause"); it waits for a restart. */
    PART_FAILED(25),
    /**
     * To a coordinator that did not direct the job: this member runs it (text: attempt, its members,
     * the latest snapshot it knows was decided committed and its writers ({@link Handover.Report}), newline, the START text).
     */
    RUNNING(26),
    /** To the coordinator: this member's execution of attempt A ended normally (text: "A"); the job ends once every member's has. */
    PART_DONE(27),
    /** To the job's members, from a coordinator that heard every member's part of attempt A end (or passed on by one that heard it): the job is done (text: "A"). */
    JOB_DONE(28);

    private static final ControlKind[] BY_CODE = new ControlKind[32];

    static {
        for (ControlKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    final byte code;

    ControlKind(int code) {
        this.code = (byte) code;
    }

    /** The kind a frame's code names; null for a code no member sends. */
    static ControlKind of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * The coordinator's commands that decide who runs a job: a member takes them only from the
     * coordinator of the view it acts on ({@link Cluster}). Snapshot messages are not among them:
     * each names its attempt, and a commit decided is a commit to carry out whichever view follows.
     */
    boolean fromCoordinator() {
        return this == START || this == ADOPT || this == RESTART || this == LEAVE;
    }

    /**
     * A report to the coordinator of the view the sender acts on: one that comes before this member
     * acts on that view waits for it ({@link ControlAheadOfView}), as the coordinator's commands do.
     */
    boolean toCoordinator() {
        return this == RUNNING || this == PART_DONE;
    }

    /** Handled by the job's {@link ClusterJob} on each member: restarts and snapshots. */
    public boolean forClusterJob() {
        return this == RESTART || this == PART_FAILED || this == RUNNING || this == PART_DONE || this == JOB_DONE || forSnapshots();
    }

    /** Handled by the job's {@link ClusterSnapshots}. */
    boolean forSnapshots() {
        return this == SNAPSHOT_START || this == SNAPSHOT_SAVED || this == SNAPSHOT_DECIDED || this == SNAPSHOT_RECORDED
                || this == SNAPSHOT_COMMIT || this == ATTACHED;
    }
}
