# Credentials come from the operator's environment (AWS_PROFILE, AWS_ACCESS_KEY_ID, SSO, an instance
# role): never from this directory. The state stays local (terraform.tfstate, git-ignored): one
# operator, one short-lived benchmark cluster.
terraform {
  required_version = ">= 1.5.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.70"
    }
  }
}

provider "aws" {
  region = var.region

  # Every resource carries these, so a forgotten cluster can be found and removed by tag
  # (Project=fournines, Stack=<stack>) even without this state file.
  default_tags {
    tags = {
      Project   = "fournines"
      Stack     = var.stack
      Owner     = var.owner
      ManagedBy = "terraform"
    }
  }
}
