variable "region" {
  description = "AWS region. The committed price table (infra/aws-prices.csv) covers us-east-1 only."
  type        = string
  default     = "us-east-1"

  validation {
    condition     = can(regex("^[a-z]{2}(-gov)?-[a-z]+-[0-9]$", var.region))
    error_message = "region must be an AWS region name such as us-east-1."
  }
}

variable "stack" {
  description = "Name of this cluster: prefixes every resource name and is the Stack tag used for cleanup."
  type        = string
  default     = "fournines"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,30}$", var.stack))
    error_message = "stack must be 1-31 characters: lower-case letters, digits and '-', starting with a letter."
  }
}

variable "owner" {
  description = "Who started the cluster (Owner tag), so a forgotten one can be traced to a person."
  type        = string

  validation {
    condition     = length(trimspace(var.owner)) > 0 && length(var.owner) <= 64
    error_message = "owner must be a non-empty name of at most 64 characters."
  }
}

variable "operator_cidr" {
  description = "The only addresses allowed to reach the hosts, and only over SSH (e.g. 203.0.113.7/32)."
  type        = string

  validation {
    condition     = can(regex("^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+/[0-9]+$", var.operator_cidr)) && can(cidrhost(var.operator_cidr, 0))
    error_message = "operator_cidr must be an IPv4 CIDR block such as 203.0.113.7/32 (the SSH rule is IPv4)."
  }
}

variable "operator_cidr_min_prefix" {
  description = "The widest operator_cidr allowed, as a prefix length: 16, unless the operator explicitly allows a wider range (OPERATOR_CIDR_WIDE=1 sets 0)."
  type        = number
  default     = 16

  validation {
    condition     = var.operator_cidr_min_prefix >= 0 && var.operator_cidr_min_prefix <= 32 && floor(var.operator_cidr_min_prefix) == var.operator_cidr_min_prefix
    error_message = "operator_cidr_min_prefix must be a whole prefix length from 0 to 32."
  }
}

variable "ssh_public_key" {
  description = "OpenSSH public key (the text, not a path) installed for the ssh_user on every host."
  type        = string

  validation {
    condition     = can(regex("^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/=]+", var.ssh_public_key))
    error_message = "ssh_public_key must be an OpenSSH public key line (ssh-ed25519 AAAA..., ssh-rsa AAAA..., ecdsa-sha2-...)."
  }
}

variable "vpc_cidr" {
  description = "Address range of the benchmark VPC; the one subnet takes its first /24."
  type        = string
  default     = "10.42.0.0/16"

  validation {
    condition     = can(cidrsubnet(var.vpc_cidr, 8, 0))
    error_message = "vpc_cidr must be an IPv4 CIDR block of /16 to /20, such as 10.42.0.0/16."
  }
}

variable "availability_zone" {
  description = "Availability zone of the subnet; a cluster placement group lives in one zone. Empty: the region's first."
  type        = string
  default     = ""

  validation {
    condition     = var.availability_zone == "" || can(regex("^[a-z]{2}(-gov)?-[a-z]+-[0-9][a-z]$", var.availability_zone))
    error_message = "availability_zone must be empty or a zone name such as us-east-1a."
  }
}

variable "members" {
  description = "Engine member hosts (the scenario's cluster.members, CLUSTER=N)."
  type        = number

  validation {
    condition     = var.members >= 1 && var.members <= 100 && floor(var.members) == var.members
    error_message = "members must be a whole number from 1 to 100."
  }
}

variable "member_instance_type" {
  description = "Instance type of the members (the Jet paper's: c5.4xlarge, 16 vCPU, 32 GiB)."
  type        = string
  default     = "c5.4xlarge"

  validation {
    # Burstable types run on CPU credits (latency would depend on the credit balance) and cannot
    # join a cluster placement group.
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", var.member_instance_type)) && !can(regex("^t[0-9]", var.member_instance_type))
    error_message = "member_instance_type must be an instance type such as c5.4xlarge, and not a burstable t* type."
  }
}

variable "brokers" {
  description = "Kafka broker hosts (KRaft, each broker+controller); 0 when the scenario's load is in-process."
  type        = number
  default     = 0

  validation {
    # An even number of KRaft controllers tolerates no more failures than one fewer.
    condition     = contains([0, 1, 3, 5], var.brokers)
    error_message = "brokers must be 0, 1, 3 or 5 (KRaft controller quorums are odd)."
  }
}

variable "broker_instance_type" {
  description = "Instance type of the Kafka brokers: i3 for local NVMe (the Kafka log goes on it)."
  type        = string
  default     = "i3.2xlarge"

  validation {
    condition     = can(regex("^i[0-9][a-z]*\\.[a-z0-9]+$", var.broker_instance_type))
    error_message = "broker_instance_type must be a storage-optimised i* type with local NVMe, such as i3.2xlarge."
  }
}

variable "loadgens" {
  description = "Load-generator hosts that feed Kafka; 0 when the load is in-process."
  type        = number
  default     = 0

  validation {
    condition     = var.loadgens >= 0 && var.loadgens <= 20 && floor(var.loadgens) == var.loadgens
    error_message = "loadgens must be a whole number from 0 to 20."
  }
}

variable "loadgen_instance_type" {
  description = "Instance type of the load generators."
  type        = string
  default     = "c5.4xlarge"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", var.loadgen_instance_type)) && !can(regex("^t[0-9]", var.loadgen_instance_type))
    error_message = "loadgen_instance_type must be an instance type such as c5.4xlarge, and not a burstable t* type."
  }
}

variable "root_volume_gb" {
  description = "Size of each host's gp3 root volume (OS, JDK, jars, results)."
  type        = number
  default     = 30

  validation {
    condition     = var.root_volume_gb >= 8 && var.root_volume_gb <= 1000
    error_message = "root_volume_gb must be from 8 to 1000."
  }
}

variable "member_port" {
  description = "TCP port the members use between themselves (data and flow control)."
  type        = number
  default     = 5701

  validation {
    condition     = var.member_port >= 1024 && var.member_port <= 65535
    error_message = "member_port must be from 1024 to 65535."
  }
}

variable "management_port" {
  description = "TCP port of each member's management HTTP API (reached through SSH, never from outside)."
  type        = number
  default     = 5801

  validation {
    condition     = var.management_port >= 1024 && var.management_port <= 65535
    error_message = "management_port must be from 1024 to 65535."
  }
}

variable "consumer_port" {
  description = "TCP port of an active-active run's result consumer, on the first load generator host; the copies' members send it their results."
  type        = number
  default     = 5901

  validation {
    condition     = var.consumer_port >= 1024 && var.consumer_port <= 65535
    error_message = "consumer_port must be from 1024 to 65535."
  }
}

variable "kafka_port" {
  description = "TCP port of the Kafka brokers' client listener."
  type        = number
  default     = 9092

  validation {
    condition     = var.kafka_port >= 1024 && var.kafka_port <= 65535
    error_message = "kafka_port must be from 1024 to 65535."
  }
}

variable "kafka_controller_port" {
  description = "TCP port of the Kafka KRaft controller listener."
  type        = number
  default     = 9093

  validation {
    condition     = var.kafka_controller_port >= 1024 && var.kafka_controller_port <= 65535
    error_message = "kafka_controller_port must be from 1024 to 65535."
  }
}
