# Members, Kafka brokers and load generators, all in one cluster placement group: the low-latency,
# high-bandwidth network of one rack row, as in the Jet paper's set-up.
data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"] # Canonical

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }

  filter {
    name   = "virtualization-type"
    values = ["hvm"]
  }
}

resource "aws_placement_group" "bench" {
  name     = "${var.stack}-cluster"
  strategy = "cluster"
}

resource "aws_key_pair" "operator" {
  key_name   = "${var.stack}-operator"
  public_key = var.ssh_public_key
}

locals {
  # role -> how many, and of which type
  roles = {
    member  = { count = var.members, type = var.member_instance_type }
    broker  = { count = var.brokers, type = var.broker_instance_type }
    loadgen = { count = var.loadgens, type = var.loadgen_instance_type }
  }
  hosts = merge([
    for role, spec in local.roles : {
      for i in range(spec.count) : "${role}-${i + 1}" => { role = role, type = spec.type, index = i + 1 }
    }
  ]...)
}

resource "aws_instance" "host" {
  for_each = local.hosts

  ami                    = data.aws_ami.ubuntu.id
  instance_type          = each.value.type
  subnet_id              = aws_subnet.bench.id
  vpc_security_group_ids = [aws_security_group.bench.id]
  placement_group        = aws_placement_group.bench.id
  key_name               = aws_key_pair.operator.key_name
  ebs_optimized          = true
  monitoring             = false

  # IMDSv2 only: the instance metadata is not readable by a plain unauthenticated GET.
  metadata_options {
    http_tokens   = "required"
    http_endpoint = "enabled"
  }

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.root_volume_gb
    delete_on_termination = true
    encrypted             = true
  }

  tags = {
    Name  = "${var.stack}-${each.key}"
    Role  = each.value.role
    Index = tostring(each.value.index)
  }

  volume_tags = {
    Name    = "${var.stack}-${each.key}-root"
    Project = "fournines"
    Stack   = var.stack
  }
}
